import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { FormDialog, saveRecord, useFormSubmit } from "../lib/list/FormDialog.tsx";
import { toast } from "../lib/toast.ts";
import type { SessionUser } from "../../contract/types.ts";
import type { ChatView } from "../../contract/team_types.ts";
import { Field } from "../lib/ui/Field.tsx";
import { LIMITS } from "../../contract/validation.ts";

type UserOption = { id: number; name: string };

/**
 * Create or edit a chat (seeds/002 sections 2.7, 5): the title is required ('Por favor, preencha o
 * título da conversa.') and at least one other user ('Por favor, selecione pelo menos um
 * usuário.'), both said as alerts. The owner always takes part (the server adds them).
 */
export function ChatDialog(
  { open, onOpenChange, chat, me, onSaved }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    chat: ChatView | null;
    me: SessionUser;
    onSaved: (chat: ChatView) => void;
  },
) {
  const { t } = useTranslation();
  const [title, setTitle] = useState("");
  const [picked, setPicked] = useState<number[]>([]);
  const [users, setUsers] = useState<UserOption[]>([]);
  const [filter, setFilter] = useState("");

  const form = useFormSubmit<ChatView>({
    validate: (): Record<string, string> => {
      if (!title.trim()) {
        toast.warning({ key: "chats.titleRequired" });
        return { title: "chats.titleRequired" };
      }
      if (picked.length === 0) {
        toast.warning({ key: "chats.usersRequired" });
        return { users: "chats.usersRequired" };
      }
      return {};
    },
    send: () =>
      saveRecord<ChatView>("/chats", chat?.id ?? null, { title: title.trim(), users: picked }),
    onDone: (saved) => {
      onSaved(saved);
      onOpenChange(false);
    },
  });

  useEffect(() => {
    if (!open) return;
    form.setErrors({});
    setFilter("");
    setTitle(chat?.title ?? "");
    setPicked(chat ? chat.users.map((u) => u.userId).filter((id) => id !== me.id) : []);
    api.get<UserOption[]>("/users/list", { quiet: true })
      .then((all) => setUsers(all.filter((u) => u.id !== me.id))).catch(() => {});
  }, [open, chat?.id]);

  const toggle = (id: number) =>
    setPicked((ids) => ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]);
  const term = filter.trim().toLowerCase();
  const shown = term ? users.filter((u) => u.name.toLowerCase().includes(term)) : users;

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      width={520}
      title={chat ? t("chats.editTitle") : t("chats.addTitle")}
      formId="chat-form"
      form={form}
      submitLabel={chat ? t("common.save") : t("common.add")}
      submitTestId="chat-submit"
    >
      <Field
        label={t("chats.titleField")}
        {...form.bind("title", title, setTitle)}
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
          {shown.map((u) => {
            const checked = picked.includes(u.id);
            return (
              <label className="people-chip" key={u.id} data-checked={checked}>
                <input type="checkbox" checked={checked} onChange={() => toggle(u.id)} />
                {u.name}
              </label>
            );
          })}
        </div>
        {form.errors.users ? <span className="field-error">{form.errors.users}</span> : null}
      </div>
    </FormDialog>
  );
}
