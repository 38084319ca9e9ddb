import type { Response } from 'supertest';

/** The JSON-RPC messages of an SSE body, in order: one per event, from its `data:` lines. */
export function sseMessages(text: string): Record<string, unknown>[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((block) =>
      block
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n'),
    )
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data) as Record<string, unknown>);
}

/** The messages of an answer, SSE or JSON alike: a JSON answer is one message. */
export function answerMessages(res: Response): Record<string, unknown>[] {
  return /^text\/event-stream/.test(res.headers['content-type'] ?? '') ? sseMessages(res.text) : [res.body as Record<string, unknown>];
}

/** The final response of an answer (its last message). */
export function finalMessage(res: Response): Record<string, any> {
  return answerMessages(res).at(-1) as Record<string, any>;
}
