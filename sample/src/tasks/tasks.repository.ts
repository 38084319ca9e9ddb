import { Injectable } from '@nestjs/common';

/** A task as the sample stores it. */
export interface Task {
  id: number;
  title: string;
  status: 'open' | 'done';
  priority: 'low' | 'normal' | 'high';
  due?: string;
  assignee?: { name: string; email?: string };
}

/** An in-memory task store: the dependency Nest injects into the tasks tool. */
@Injectable()
export class TasksRepository {
  private readonly tasks = new Map<number, Task>();
  private nextId = 1;

  add(fields: Omit<Task, 'id' | 'status'>): Task {
    const task: Task = { id: this.nextId++, status: 'open', ...fields };
    this.tasks.set(task.id, task);
    return task;
  }

  byId(id: number): Task | undefined {
    return this.tasks.get(id);
  }

  byTitle(title: string): Task | undefined {
    return [...this.tasks.values()].find((t) => t.title === title);
  }

  list(status: Task['status'], limit: number): Task[] {
    return [...this.tasks.values()].filter((t) => t.status === status).slice(0, limit);
  }

  count(status: Task['status']): number {
    return [...this.tasks.values()].filter((t) => t.status === status).length;
  }
}
