// The Vercel AI SDK's MCP client 2.x, at its defaults, against the MCP server at argv[2]: what it saw, printed as one
// JSON object. 2.x needs Node 22, so other-clients.e2e-spec.ts runs this file with the runner's Node 22 (argv[3] is
// the runner, where the pinned client is installed).
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [url, runner] = process.argv.slice(2);
const entry = createRequire(path.join(runner, 'package.json')).resolve('@ai-sdk/mcp');
const { createMCPClient, ElicitationRequestSchema } = await import(pathToFileURL(entry).href);

/** Every POST the client made: its method, the version it named in MCP-Protocol-Version and Mcp-Method, the status. */
const wire = [];
const send = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const headers = new Headers(init?.headers);
  const method = typeof init?.body === 'string' ? JSON.parse(init.body).method : undefined;
  const response = await send(input, init);
  wire.push({ method, version: headers.get('mcp-protocol-version'), mcpMethod: headers.get('mcp-method'), status: response.status });
  return response;
};

/** The elicitations the client was asked, and the user's answer to the next one. */
const asked = [];
let accept = false;

const client = await createMCPClient({ transport: { type: 'http', url }, capabilities: { elicitation: {} } });
client.onElicitationRequest(ElicitationRequestSchema, (request) => {
  asked.push(request.params.message);
  return accept ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
});
try {
  const tools = await client.tools();
  const call = async (name, args) => (await tools[name].execute(args, { toolCallId: name, messages: [] })).content[0].text;
  const seen = { serverInfo: client.serverInfo, tools: Object.keys(tools).sort() };
  seen.echo = await call('echo', { text: 'hello over the AI SDK 2' });
  seen.refused = JSON.parse(await call('echo', { text: 42 })).error;
  seen.declined = await call('delete_note', { title: 'ideas' });
  accept = true;
  seen.accepted = await call('delete_note', { title: 'ideas' });
  seen.asked = asked;
  seen.resources = (await client.listResources()).resources.map((resource) => resource.uri);
  seen.read = (await client.readResource({ uri: 'notes://notes/todo' })).contents;
  seen.unknownUri = await client.readResource({ uri: 'notes://notes/nope' }).then(
    () => 'read',
    (error) => error.message,
  );
  const prompt = await client.experimental_getPrompt({ name: 'review_note', arguments: { title: 'todo', tone: 'blunt' } });
  seen.prompt = prompt.messages.map((message) => message.content.type);
  seen.completion = (await client.complete({ ref: { type: 'ref/prompt', name: 'review_note' }, argument: { name: 'title', value: 'gr' } })).completion.values;
  seen.wire = wire;
  process.stdout.write(JSON.stringify(seen));
} finally {
  await client.close();
}
