import { Injectable, Module, type BeforeApplicationShutdown } from '@nestjs/common';

/**
 * A shutdown hook that holds the application's close until released, and runs after the mount's own: Nest calls
 * `beforeApplicationShutdown` on modules nearest the root first, and this one's module sits a level below the mount's.
 * Stands for what holds a server open once the mount's wait is over: another module's hook, or the server's close
 * waiting for a busy connection.
 */
@Injectable()
export class LateShutdownHold implements BeforeApplicationShutdown {
  static reached = false;
  static release: () => void = () => undefined;
  beforeApplicationShutdown(): Promise<void> {
    LateShutdownHold.reached = true;
    return new Promise((resolve) => (LateShutdownHold.release = resolve));
  }
}

@Module({ providers: [LateShutdownHold] })
class LateShutdownHoldInner {}

/** Import it beside `McpModule.forRoot` (as `createTestApp`'s `imports`): its inner module is one level deeper. */
@Module({ imports: [LateShutdownHoldInner] })
export class LateShutdownHoldModule {}
