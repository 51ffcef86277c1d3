import { STORAGE } from "../lib/storage.ts";

/**
 * The to-do list lives only in the browser (seeds/000 sections 2 'To-do' and 3: localStorage key
 * `tasks`). Pure functions over the list so the rules (blank text ignored) are testable.
 */
export const TASKS_KEY = STORAGE.tasks;

export type Task = { id: string; text: string; createdAt: string; updatedAt: string };

/** The stored list; anything unreadable counts as empty rather than breaking the page. */
export function parseTasks(raw: string | null): Task[] {
  if (!raw) return [];
  try {
    const list = JSON.parse(raw);
    if (!Array.isArray(list)) return [];
    return list.filter((x) => x && typeof x.text === "string").map((x, i) => ({
      id: typeof x.id === "string" ? x.id : `t${i}-${String(x.createdAt ?? "")}`,
      text: x.text,
      createdAt: String(x.createdAt ?? new Date(0).toISOString()),
      updatedAt: String(x.updatedAt ?? x.createdAt ?? new Date(0).toISOString()),
    }));
  } catch {
    return [];
  }
}

/** Adds a task at the end; empty or blank text is ignored (seeds/000 section 5 'To-do'). */
export function addTask(list: Task[], text: string, now: Date, id: string): Task[] {
  const trimmed = text.trim();
  if (!trimmed) return list;
  const at = now.toISOString();
  return [...list, { id, text: trimmed, createdAt: at, updatedAt: at }];
}

/** Changes a task's text and its updated time; a blank edit changes nothing. */
export function editTask(list: Task[], id: string, text: string, now: Date): Task[] {
  const trimmed = text.trim();
  if (!trimmed) return list;
  return list.map((t) =>
    t.id === id && t.text !== trimmed ? { ...t, text: trimmed, updatedAt: now.toISOString() } : t
  );
}

export function deleteTask(list: Task[], id: string): Task[] {
  return list.filter((t) => t.id !== id);
}
