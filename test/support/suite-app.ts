import { afterAll, beforeAll } from '@jest/globals';

import { createTestApp, type TestApp, type TestAppSpec } from './test-app.js';

/**
 * Boots one test app for the enclosing describe block (before its first test, closed after its last) and
 * returns a getter for it, so a suite reads `app().server` instead of repeating the lifecycle.
 */
export function useTestApp(spec: TestAppSpec = {}): () => TestApp {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await createTestApp(spec);
  });
  afterAll(() => app?.close());
  return () => {
    if (!app) throw new Error('the test app is not running (useTestApp boots it in beforeAll)');
    return app;
  };
}
