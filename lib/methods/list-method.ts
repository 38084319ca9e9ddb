import { ERAS } from '../mcp.constants.js';
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
  private listed: readonly ListedDefinition[] | undefined;

  constructor(private readonly pages: ListPages) {}

  abstract served(): boolean;

  /** The definitions listed, in the list's stable order. */
  protected abstract definitions(): readonly ListedDefinition[];

  async handle(call: MethodCall): Promise<McpResult> {
    this.listed ??= this.definitions();
    return this.pages.result(this.method, this.member, this.listed, call.params.cursor);
  }
}
