import type { ServerResponse } from 'node:http';

import { Injectable, type OnModuleDestroy } from '@nestjs/common';

/**
 * Whether the application is shutting down, set at its first shutdown hook, before its HTTP server closes. From
 * then on each answer of the mount closes its connection after it (`Connection: close`): the server's close waits
 * for busy connections, and a keep-alive client sending request after request would otherwise hold it open for ever.
 */
@Injectable()
export class MountClosing implements OnModuleDestroy {
  closing = false;

  onModuleDestroy(): void {
    this.closing = true;
  }

  /** Once closing, makes `res` close its connection after it; called before its headers go. */
  closeAfter(res: ServerResponse): void {
    if (this.closing) res.shouldKeepAlive = false;
  }
}
