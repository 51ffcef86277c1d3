import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { languageOf, LOCALE_TAGS } from "./lib/i18n.ts";
import { readStorage, writeStorage } from "./lib/storage.ts";
import { Button, IconButton } from "./lib/ui/Button.tsx";
import { addTask, deleteTask, editTask, parseTasks, type Task, TASKS_KEY } from "./todo/tasks.ts";
import { icon } from "./lib/ui/icon.tsx";

const Check = icon("check");
const Pencil = icon("pencil");
const Plus = icon("plus");
const Trash2 = icon("trash-2");
const X = icon("x");

export type TodoPageProps = Record<string, never>;

/** /todolist (seeds/000 section 2 'To-do'): a local list kept in the browser only. */
export default function TodoPage(_props: TodoPageProps) {
  const { t } = useTranslation();
  return (
    <AppShell title={t("todo.title")}>
      <Todo />
    </AppShell>
  );
}

function Todo() {
  const { t, i18n } = useTranslation();
  const [tasks, setTasks] = useState<Task[]>([]);
  const [text, setText] = useState("");
  const [editing, setEditing] = useState<{ id: string; text: string } | null>(null);
  const format = new Intl.DateTimeFormat(LOCALE_TAGS[languageOf(i18n)], {
    dateStyle: "short",
    timeStyle: "short",
  });

  // Read after hydration: the server has no localStorage.
  useEffect(() => setTasks(parseTasks(readStorage(TASKS_KEY))), []);

  const save = (next: Task[]) => {
    setTasks(next);
    writeStorage(TASKS_KEY, JSON.stringify(next));
  };

  const add = (event: FormEvent) => {
    event.preventDefault();
    save(addTask(tasks, text, new Date(), crypto.randomUUID()));
    setText("");
  };

  const commitEdit = (event: FormEvent) => {
    event.preventDefault();
    if (editing) save(editTask(tasks, editing.id, editing.text, new Date()));
    setEditing(null);
  };

  return (
    <div className="todo">
      <form className="todo-add card" onSubmit={add}>
        <input
          className="input"
          name="task"
          placeholder={t("todo.placeholder")}
          aria-label={t("todo.placeholder")}
          value={text}
          onChange={(e) => setText(e.target.value)}
          maxLength={500}
        />
        <Button variant="primary" type="submit">
          <Plus size={16} aria-hidden="true" /> {t("todo.add")}
        </Button>
      </form>
      {tasks.length === 0
        ? <div className="empty-state">{t("todo.empty")}</div>
        : (
          <ul className="todo-list card" data-testid="todo-list">
            {tasks.map((task) => (
              <li key={task.id} className="todo-item" data-testid="todo-item">
                {editing?.id === task.id
                  ? (
                    <form className="todo-edit" onSubmit={commitEdit}>
                      <input
                        className="input"
                        aria-label={t("todo.editLabel")}
                        value={editing.text}
                        onChange={(e) => setEditing({ id: task.id, text: e.target.value })}
                        autoFocus
                        maxLength={500}
                      />
                      <IconButton label={t("todo.save")} type="submit">
                        <Check size={18} aria-hidden="true" />
                      </IconButton>
                      <IconButton label={t("todo.cancel")} onClick={() => setEditing(null)}>
                        <X size={18} aria-hidden="true" />
                      </IconButton>
                    </form>
                  )
                  : (
                    <>
                      <div className="todo-text">
                        <span data-testid="todo-text">{task.text}</span>
                        <small>
                          {t("todo.created", { date: format.format(new Date(task.createdAt)) })}
                          {task.updatedAt !== task.createdAt
                            ? ` · ${
                              t("todo.updated", { date: format.format(new Date(task.updatedAt)) })
                            }`
                            : ""}
                        </small>
                      </div>
                      <IconButton
                        label={t("todo.edit")}
                        onClick={() => setEditing({ id: task.id, text: task.text })}
                      >
                        <Pencil size={18} aria-hidden="true" />
                      </IconButton>
                      <IconButton
                        label={t("todo.delete")}
                        onClick={() => save(deleteTask(tasks, task.id))}
                      >
                        <Trash2 size={18} aria-hidden="true" />
                      </IconButton>
                    </>
                  )}
              </li>
            ))}
          </ul>
        )}
    </div>
  );
}
