/**
 * An `x-mcp-header` annotation on an input-schema property: the `Mcp-Param-{X}` header a client mirrors that
 * argument into. Validated at module init (`collectHeaderAnnotations`); see docs/wire-checks.md.
 * @publicApi
 */
export interface HeaderAnnotation {
  /** The annotation's value `X`, as written. */
  readonly value: string;
  /** The header name, lower-cased as Node exposes it: `mcp-param-x`. */
  readonly header: string;
  /** The `properties` path from the arguments root to the annotated property. */
  readonly path: readonly string[];
  /** The property's JSON type. */
  readonly type: 'string' | 'integer' | 'boolean';
}

/** Wired-in tools' header annotations, as header binding reads them (the tool registry implements it). @publicApi */
export interface HeaderAnnotationLookup {
  /** The header annotations of the tool wired in under `tool`; none for an unknown tool. */
  annotationsOf(tool: string): readonly HeaderAnnotation[];
}

/** Injection token of the header-annotation lookup. @publicApi */
export const HeaderAnnotationLookup = Symbol.for('nest-mcp.HeaderAnnotationLookup');
