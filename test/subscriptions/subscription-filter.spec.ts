import { describe, expect, it } from '@jest/globals';

import { coversUri } from '../../lib/subscriptions/subscription-filter.js';

describe('coversUri', () => {
  it.each([
    ['test://', 'test://host/a'], // cut just after the second of two adjacent slashes
    ['file:///', 'file:///etc/hosts'],
    ['file://', 'file:///etc/hosts'],
    ['test://host', 'test://host/a'],
    ['test://host/', 'test://host/a'],
  ])('counts %s, the updated URI cut just before or after one of its slashes, as covering %s', (subscribed, uri) => {
    expect(coversUri(new Set([subscribed]), uri)).toBe(true);
  });

  it.each([
    ['test://host', 'test://hostname/a'],
    ['test://host/a', 'test://host/ab'],
    ['test://host/a/', 'test://host/a'],
  ])('does not count %s as covering %s', (subscribed, uri) => {
    expect(coversUri(new Set([subscribed]), uri)).toBe(false);
  });
});
