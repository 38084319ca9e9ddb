import { Module } from '@nestjs/common';

import { TasksRepository } from './tasks.repository.js';
import { TasksTool } from './tasks.tool.js';

/** The tasks feature: the tool and the repository injected into it. Tools are found wherever they are provided. */
@Module({ providers: [TasksRepository, TasksTool] })
export class TasksModule {}
