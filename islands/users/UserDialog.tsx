import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import type { QueueRef } from "../../contract/types.ts";
import { Field } from "../lib/ui/Field.tsx";
import { FormDialog, saveRecord, useFormSubmit } from "../lib/list/FormDialog.tsx";
import { Select } from "../lib/ui/Select.tsx";
import type { ConnectionOption, UserRow } from "../../contract/people_types.ts";
import { check, email, length, LIMITS } from "../../contract/validation.ts";

const NO_CONNECTION = "none";

/**
 * Add or edit a user (seeds/000 sections 2 'Users', 5 'User form', 6): name 2..50, email valid,
 * password 5..50 (on edit optional: empty keeps the current one). Profile, queues, default
 * connection and allTicket are editable only by admins (user-modal:editProfile/editQueues).
 */
export function UserDialog(
  { open, onOpenChange, userId, canAdmin, onSaved }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    userId: number | null;
    canAdmin: boolean;
    onSaved?: (user: UserRow) => void;
  },
) {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [mail, setMail] = useState("");
  const [password, setPassword] = useState("");
  const [profile, setProfile] = useState<"admin" | "user">("user");
  const [queueIds, setQueueIds] = useState<number[]>([]);
  const [whatsappId, setWhatsappId] = useState<string>(NO_CONNECTION);
  const [allTicket, setAllTicket] = useState<"enable" | "disable">("disable");
  const [queues, setQueues] = useState<QueueRef[]>([]);
  const [connections, setConnections] = useState<ConnectionOption[]>([]);
  const [loading, setLoading] = useState(false);
  const form = useFormSubmit({
    validate: () =>
      check({ name, email: mail, password }, {
        name: length(LIMITS.name),
        email: email(true),
        password: length(LIMITS.password, userId === null),
      }),
    send: () => {
      const body: Record<string, unknown> = { name: name.trim(), email: mail.trim() };
      if (password) body.password = password;
      if (canAdmin) {
        body.profile = profile;
        body.queueIds = queueIds;
        body.whatsappId = whatsappId === NO_CONNECTION ? null : Number(whatsappId);
        body.allTicket = allTicket;
      }
      return saveRecord<UserRow>("/users", userId, body);
    },
    successKey: "users.saved",
    onDone: (saved) => {
      onSaved?.(saved);
      onOpenChange(false);
    },
  });
  const errors = form.errors;

  useEffect(() => {
    if (!open) return;
    form.setErrors({});
    setName("");
    setMail("");
    setPassword("");
    setProfile("user");
    setQueueIds([]);
    setWhatsappId(NO_CONNECTION);
    setAllTicket("disable");
    if (canAdmin) {
      api.get<QueueRef[]>("/queue").then(setQueues).catch(() => {});
      api.get<ConnectionOption[]>("/whatsapp", { query: { session: 0 } }).then(setConnections)
        .catch(() => {});
    }
    if (userId === null) return;
    setLoading(true);
    api.get<UserRow>(`/users/${userId}`).then((u) => {
      setName(u.name);
      setMail(u.email);
      setProfile(u.profile);
      setQueueIds(u.queues.map((q) => q.id));
      if (!canAdmin) setQueues(u.queues);
      setWhatsappId(u.whatsappId === null ? NO_CONNECTION : String(u.whatsappId));
      if (!canAdmin && u.whatsapp) setConnections([u.whatsapp]);
      setAllTicket(u.allTicket);
    }).catch(() => onOpenChange(false)).finally(() => setLoading(false));
  }, [open, userId, canAdmin]);

  const toggleQueue = (id: number) =>
    setQueueIds((ids) => (ids.includes(id) ? ids.filter((q) => q !== id) : [...ids, id]));

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      width={580}
      title={userId === null ? t("users.addTitle") : t("users.editTitle")}
      formId="user-form"
      form={form}
      submitLabel={userId === null ? t("common.add") : t("common.save")}
      disabled={loading}
    >
      <div className="row">
        <Field
          label={t("users.name")}
          {...form.bind("name", name, setName)}
          autoFocus
        />
        <Field
          label={t("users.password")}
          type="password"
          autoComplete="new-password"
          {...form.bind("password", password, setPassword)}
          hint={userId === null ? undefined : t("users.passwordHint")}
        />
      </div>
      <div className="row">
        <Field
          label={t("users.email")}
          type="email"
          autoComplete="off"
          {...form.bind("email", mail, setMail)}
        />
        <div className="field">
          <label id="user-profile-label">{t("users.profile")}</label>
          <Select
            label={t("users.profile")}
            value={profile}
            onValueChange={(v) => setProfile(v as "admin" | "user")}
            disabled={!canAdmin}
            options={[
              { value: "admin", label: t("users.profiles.admin") },
              { value: "user", label: t("users.profiles.user") },
            ]}
          />
          {errors.profile ? <span className="field-error">{errors.profile}</span> : null}
        </div>
      </div>
      <div className="field" role="group" aria-labelledby="user-queues-label">
        <label id="user-queues-label">{t("users.queues")}</label>
        <div className="people-chips" data-testid="user-queues">
          {queues.length === 0
            ? <span className="field-hint">{t("users.noQueues")}</span>
            : queues.map((q) => {
              const checked = queueIds.includes(q.id);
              return (
                <label className="people-chip" key={q.id} data-checked={checked}>
                  <input
                    type="checkbox"
                    checked={checked}
                    disabled={!canAdmin}
                    onChange={() => toggleQueue(q.id)}
                  />
                  <span className="swatch" style={{ background: q.color }} />
                  {q.name}
                </label>
              );
            })}
        </div>
        {errors.queueIds ? <span className="field-error">{errors.queueIds}</span> : null}
      </div>
      <div className="row">
        <div className="field">
          <label>{t("users.whatsapp")}</label>
          <Select
            label={t("users.whatsapp")}
            value={whatsappId}
            onValueChange={setWhatsappId}
            disabled={!canAdmin}
            options={[
              { value: NO_CONNECTION, label: t("users.noWhatsapp") },
              ...connections.map((c) => ({ value: String(c.id), label: c.name })),
            ]}
          />
        </div>
        <div className="field">
          <label>{t("users.allTicket")}</label>
          <Select
            label={t("users.allTicket")}
            value={allTicket}
            onValueChange={(v) => setAllTicket(v as "enable" | "disable")}
            disabled={!canAdmin}
            options={[
              { value: "enable", label: t("users.allTicketEnable") },
              { value: "disable", label: t("users.allTicketDisable") },
            ]}
          />
        </div>
      </div>
    </FormDialog>
  );
}
