import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { of, type Observable } from 'rxjs';

/**
 * A host interceptor that answers for itself, never calling the handler, while `x-maintenance` is sent (a maintenance
 * switch): the mount answers such a request as unanswered.
 */
@Injectable()
export class MaintenanceInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<{ headers: Record<string, unknown> }>();
    return req.headers['x-maintenance'] ? of({ maintenance: true }) : next.handle();
  }
}
