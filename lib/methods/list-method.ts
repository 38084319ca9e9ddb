import { ERAS, type McpEra } from '../mcp.constants.js';
import type { McpResult } from '../protocol/json-rpc.js';
import type { ListPages } from './list-pages.js';
import type { McpMethodHandler, MethodCall } from './method-handler.interface.js';

/** A list definition as sent: a tool's, prompt's, resource's or template's. */
export type ListedDefinition = Readonly<Record<string, unknown>>;

/**
 * A list method (`tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`) on both eras: the
 * definitions a registry holds, read once after module init, a page at a time (`ListPages`) under `member`.
 */
export abstract class ListMethod implements McpMethodHandler {
  abstract readonly method: 'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list';
  readonly eras = ERAS;
  /** The result's member holding the page. */
  protected abstract readonly member: string;
  private readonly listed = new Map<McpEra, readonly ListedDefinition[]>();

  constructor(private readonly pages: ListPages) {}

  abstract served(): boolean;

  /** The definitions listed to a request of `era`, in the list's stable order. */
  protected abstract definitions(era: McpEra): readonly ListedDefinition[];

  /**
   * The list's name for its pages and cursors: one list for both eras unless a method lists them differently (a
   * cursor names the list it pages through).
   */
  protected listName(_era: McpEra): string {
    return this.method;
  }

  /**
   * Definitions a list gathers again for each request, after those read once (the resources a template lists);
   * none by default. A list with any is paged afresh on every request.
   */
  protected listedPerRequest(_call: MethodCall): Promise<readonly ListedDefinition[]> | undefined {
    return undefined;
  }

  async handle(call: MethodCall): Promise<McpResult> {
    const era = call.record.era ?? 'modern';
    let listed = this.listed.get(era);
    if (!listed) this.listed.set(era, (listed = this.definitions(era)));
    const gathering = this.listedPerRequest(call);
    if (!gathering) return this.pages.result(this.listName(era), this.member, listed, call.params.cursor);
    return this.pages.result(this.listName(era), this.member, [...listed, ...(await gathering)], call.params.cursor, { fresh: true, readOnce: listed.length });
  }
}
