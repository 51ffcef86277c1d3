import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { FormDialog } from "../lib/list/FormDialog.tsx";
import { type RecordDialogProps, useRecordForm } from "../lib/list/record_form.ts";
import { toast } from "../lib/toast.ts";
import type { SessionUser } from "../../contract/types.ts";
import type { ChatView } from "../../contract/team_types.ts";
import { Field } from "../lib/ui/Field.tsx";
import { LIMITS } from "../../contract/validation.ts";

type UserOption = { id: number; name: string };

/**
 * seeds/002 section 5: the title is required ('Por favor, preencha o título da conversa.') and at
 * least one other user ('Por favor, selecione pelo menos um usuário.'), both said as alerts too.
 */
function chatProblems({ title, users }: { title: string; users: number[] }) {
  const key = !title.trim()
    ? "chats.titleRequired"
    : users.length === 0
    ? "chats.usersRequired"
    : null;
  if (!key) return {};
  toast.warning({ key });
  return { [key === "chats.titleRequired" ? "title" : "users"]: key };
}

/**
 * Create or edit a chat (seeds/002 sections 2.7, 5): its title and the other users taking part.
 * The owner always takes part (the server adds them).
 */
export function ChatDialog({ me, ...dialog }: RecordDialogProps<ChatView> & { me: SessionUser }) {
  const { t } = useTranslation();
  const [users, setUsers] = useState<UserOption[]>([]);
  const [filter, setFilter] = useState("");
  const form = useRecordForm(dialog, {
    path: "/chats",
    empty: { title: "", users: [] as number[] },
    values: (chat) => ({ users: chat.users.map((u) => u.userId).filter((id) => id !== me.id) }),
    onOpen: () => {
      setFilter("");
      api.get<UserOption[]>("/users/list", { quiet: true })
        .then((all) => setUsers(all.filter((u) => u.id !== me.id))).catch(() => {});
    },
    validate: chatProblems,
    body: ({ title, users }) => ({ title: title.trim(), users }),
  });
  const picked = form.values.users;
  const toggle = (id: number) =>
    form.set("users", picked.includes(id) ? picked.filter((x) => x !== id) : [...picked, id]);
  const term = filter.trim().toLowerCase();
  const shown = term ? users.filter((u) => u.name.toLowerCase().includes(term)) : users;

  return (
    <FormDialog
      form={form}
      width={520}
      texts="chats"
      id="chat"
    >
      <Field
        label={t("chats.titleField")}
        {...form.field("title")}
        maxLength={LIMITS.chatTitle.max}
        autoFocus
      />
      <div className="field" role="group" aria-labelledby="chat-users-label">
        <label id="chat-users-label">{t("chats.users")}</label>
        <input
          className="input"
          value={filter}
          placeholder={t("chats.usersSearch")}
          aria-label={t("chats.usersSearch")}
          onChange={(e) => setFilter(e.target.value)}
        />
        <div className="people-chips chat-users" data-testid="chat-users">
          {shown.map((u) => (
            <label className="people-chip" key={u.id} data-checked={picked.includes(u.id)}>
              <input
                type="checkbox"
                checked={picked.includes(u.id)}
                onChange={() =>
                  toggle(u.id)}
              />
              {u.name}
            </label>
          ))}
        </div>
        {form.errors.users ? <span className="field-error">{form.errors.users}</span> : null}
      </div>
    </FormDialog>
  );
}
