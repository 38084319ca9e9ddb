import { beforeEach, expect } from '@jest/globals';

/** Every test must make at least one assertion: a test that asserts nothing fails (jest.config.js setup). */
beforeEach(() => {
  expect.hasAssertions();
});
