import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, endSession } from "../api.ts";
import { forgetCachedUser, setSessionUser } from "../session.ts";
import { toast } from "../toast.ts";
import type { SessionUser } from "../../../contract/types.ts";
import { Field } from "../ui/Field.tsx";
import { FormDialog } from "../list/FormDialog.tsx";
import { useFormSubmit } from "../list/form_submit.ts";
import { check, email as emailRule, length, LIMITS } from "../../../contract/validation.ts";

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
  const form = useFormSubmit({
    validate: () =>
      check({ name, email, password }, {
        name: length(LIMITS.name),
        email: emailRule(true),
        password: length(LIMITS.password, false),
      }),
    send: () => {
      const body: Record<string, string> = { name: name.trim(), email: email.trim() };
      if (password) body.password = password;
      return api.put<{ sessionEnded?: boolean } | undefined>(`/users/${user.id}`, body, {
        quiet: true,
      });
    },
    onDone: (answer) => {
      onOpenChange(false);
      if (answer?.sessionEnded) {
        // A new password ends every session of the user, this one included: sign in again.
        toast.success({ key: "shell.profile.passwordChanged" });
        forgetCachedUser();
        setTimeout(endSession, 1000);
        return;
      }
      setSessionUser({ ...user, name: name.trim(), email: email.trim() });
      toast.success({ key: "shell.profile.saved" });
    },
  });

  useEffect(() => {
    if (!open) return;
    setName(user.name);
    setEmail(user.email);
    setPassword("");
    form.setErrors({});
  }, [open, user]);

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t("shell.profile.title")}
      id="profile"
      form={form}
      submitLabel={t("common.save")}
    >
      <Field
        label={t("shell.profile.name")}
        autoComplete="name"
        {...form.bind("name", name, setName)}
      />
      <Field
        label={t("shell.profile.email")}
        type="email"
        autoComplete="email"
        {...form.bind("email", email, setEmail)}
      />
      <Field
        label={t("shell.profile.password")}
        type="password"
        autoComplete="new-password"
        {...form.bind("password", password, setPassword)}
        hint={t("shell.profile.passwordHint")}
      />
    </FormDialog>
  );
}
