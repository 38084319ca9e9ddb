/**
 * A header annotation as the header-binding check reads it: an `x-mcp-header` key on an input-schema property,
 * naming the `Mcp-Param-{X}` header a conforming client mirrors that argument into. Collected and validated at
 * module init (`collectHeaderAnnotations`).
 * @publicApi
 */
export interface HeaderAnnotation {
  /** The annotation's value `X`, as written. */
  readonly value: string;
  /** The header name, lower-cased as Node exposes it: `mcp-param-x`. */
  readonly header: string;
  /** The property names from the arguments root to the annotated property (a pure `properties` chain). */
  readonly path: readonly string[];
  /** The property's JSON type. */
  readonly type: 'string' | 'integer' | 'boolean';
}

/**
 * The header-annotation lookup: the one thing the header-binding check needs to know about tools, filled at
 * module init (the tool registry implements it). Its token has the interface's name.
 * @publicApi
 */
export interface HeaderAnnotationLookup {
  /** The header annotations of the tool wired in under `tool`; none for an unknown tool. */
  annotationsOf(tool: string): readonly HeaderAnnotation[];
}

/** Injection token of the header-annotation lookup. @publicApi */
export const HeaderAnnotationLookup = Symbol.for('nest-mcp.HeaderAnnotationLookup');
