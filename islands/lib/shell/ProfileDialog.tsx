import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, endSession } from "../api.ts";
import { ApiError } from "../errors.ts";
import { forgetCachedUser, setSessionUser } from "../session.ts";
import { toast } from "../toast.ts";
import type { SessionUser } from "../types.ts";
import { Button } from "../ui/Button.tsx";
import { Field } from "../ui/Field.tsx";
import { Modal } from "../ui/Modal.tsx";

/**
 * The user's own form, opened from the account menu (seeds/000 section 2 'Top bar'): name, email
 * and a new password, saved with PUT /api/users/:id (the users area owns that endpoint).
 */
export function ProfileDialog(
  { user, open, onOpenChange }: {
    user: SessionUser;
    open: boolean;
    onOpenChange: (open: boolean) => void;
  },
) {
  const { t } = useTranslation();
  const [name, setName] = useState(user.name);
  const [email, setEmail] = useState(user.email);
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setName(user.name);
    setEmail(user.email);
    setPassword("");
    setErrors({});
  }, [open, user]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const local: Record<string, string> = {};
    if (name.trim().length < 2) local.name = t("shell.profile.nameTooShort");
    if (!/^\S+@\S+\.\S+$/.test(email.trim())) local.email = t("shell.profile.invalidEmail");
    if (password && password.length < 5) local.password = t("shell.profile.passwordTooShort");
    setErrors(local);
    if (Object.keys(local).length) return;
    setSaving(true);
    try {
      const body: Record<string, string> = { name: name.trim(), email: email.trim() };
      if (password) body.password = password;
      const answer = await api.put<{ sessionEnded?: boolean } | undefined>(
        `/users/${user.id}`,
        body,
        { quiet: true },
      );
      onOpenChange(false);
      if (answer?.sessionEnded) {
        // A new password ends every session of the user, this one included: sign in again.
        toast.success({ key: "shell.profile.passwordChanged" });
        forgetCachedUser();
        setTimeout(endSession, 1000);
        return;
      }
      setSessionUser({ ...user, name: body.name, email: body.email });
      toast.success({ key: "shell.profile.saved" });
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fields).length) {
        setErrors(Object.fromEntries(
          Object.entries(error.fields).map(([field, messages]) => [field, messages[0] ?? ""]),
        ));
      } else {
        toast.error(error);
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={t("shell.profile.title")}
      footer={
        <>
          <Button variant="ghost" onClick={() => onOpenChange(false)}>{t("common.cancel")}</Button>
          <Button variant="primary" type="submit" form="profile-form" loading={saving}>
            {t("common.save")}
          </Button>
        </>
      }
    >
      <form id="profile-form" onSubmit={submit} noValidate>
        <Field
          label={t("shell.profile.name")}
          name="name"
          autoComplete="name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={errors.name}
        />
        <Field
          label={t("shell.profile.email")}
          name="email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={errors.email}
        />
        <Field
          label={t("shell.profile.password")}
          name="password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
          hint={t("shell.profile.passwordHint")}
        />
      </form>
    </Modal>
  );
}
