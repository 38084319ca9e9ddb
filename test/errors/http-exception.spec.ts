import { describe, expect, it } from '@jest/globals';
import { BadRequestException, HttpException, NotFoundException } from '@nestjs/common';

import { httpExceptionMethodError, httpExceptionParts, isHttpException } from '../../lib/errors/http-exception.js';

/** An HttpException whose `getStatus` or `getResponse` throws, as a hostile or broken subclass may. */
class Hostile extends HttpException {
  constructor(private readonly breaks: 'getStatus' | 'getResponse') {
    super('its own message', 404);
  }
  override getStatus(): number {
    if (this.breaks === 'getStatus') throw new Error('status trap');
    return super.getStatus();
  }
  override getResponse(): string | object {
    if (this.breaks === 'getResponse') throw new Error('response trap');
    return super.getResponse();
  }
}

describe('reading a Nest HttpException', () => {
  it('tells one by its methods, across Nest copies, and nothing else', () => {
    const lookalike = Object.assign(new Error('x'), { getStatus: () => 404, getResponse: () => 'x' });
    const halfLookalike = Object.assign(new Error('x'), { getStatus: () => 404 });
    expect([new NotFoundException(), lookalike, new Error('x'), { getStatus: () => 1, getResponse: () => 1 }, null, halfLookalike].map(isHttpException)).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });

  it.each([
    ['a NotFoundException', new NotFoundException('User 7 not found'), { error: 'NotFoundException', status: 404, message: 'User 7 not found' }],
    ['a ValidationPipe-style list', new BadRequestException(['a is wrong', 'b is wrong']), { error: 'BadRequestException', status: 400, message: 'a is wrong; b is wrong' }],
    ['a throwing getStatus: no status, its own message', new Hostile('getStatus'), { error: 'Hostile', message: 'its own message' }],
    ['a throwing getResponse: its status, its own message', new Hostile('getResponse'), { error: 'Hostile', status: 404, message: 'its own message' }],
    ['a status that is no integer', new HttpException('odd', 401.5), { error: 'HttpException', message: 'odd' }],
    [
      'a body whose message list holds more than strings: its own message',
      new BadRequestException({ message: [1, 'a is wrong'] }),
      { error: 'BadRequestException', status: 400, message: 'Bad Request Exception' },
    ],
  ])('reads %s', (_case, thrown, parts) => {
    expect(httpExceptionParts(thrown)).toEqual(parts);
  });

  it.each([
    ['a 4xx: invalid params, 400', new NotFoundException('gone'), -32602, 400],
    ['a 408: try later, its status', new HttpException('too slow', 408), -32603, 408],
    ['a 429: try later, its status', new HttpException('slow down', 429), -32603, 429],
    ['a 5xx: its status', new HttpException('down', 503), -32603, 503],
    ['no readable status: 500', new Hostile('getStatus'), -32603, 500],
    ['a status outside 100-599: 500', new HttpException('odd', 1000), -32603, 500],
    ['a 2xx thrown: 500', new HttpException('odd', 200), -32603, 500],
  ])('answers %s', (_case, thrown, code, httpStatus) => {
    const error = httpExceptionMethodError(thrown);
    expect([error.code, error.httpStatus]).toEqual([code, httpStatus]);
  });
});
