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

/** The most tasks the sample keeps: it stores them in memory, so a caller could otherwise fill the heap. */
export const MAX_TASKS = 1000;

/** An in-memory task store: the dependency Nest injects into the tasks tool. */
@Injectable()
export class TasksRepository {
  private readonly tasks = new Map<number, Task>();
  private nextId = 1;

  /** Stores a new open task; undefined when it holds {@link MAX_TASKS} already. */
  add(fields: Omit<Task, 'id' | 'status'>): Task | undefined {
    if (this.tasks.size >= MAX_TASKS) return undefined;
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
