import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { planLimit } from "./lib/plan_limit.ts";
import { api } from "./lib/api.ts";
import { errorText, fieldErrors } from "./lib/errors.ts";
import { type PlanView, SIGNUP_DONE_QUERY } from "../contract/platform_types.ts";
import { AuthCard } from "./lib/shell/AuthCard.tsx";
import { Button } from "./lib/ui/Button.tsx";
import { Field } from "./lib/ui/Field.tsx";
import { check, email, length, LIMITS } from "../contract/validation.ts";
import { icon } from "./lib/ui/icon.tsx";

const UserPlus = icon("user-plus");

export type SignupPageProps = { companyId: string | null };

/**
 * /signup (seeds/001 section 2 'Signup', public): the first admin's name (2-50), the company's
 * name, email, phone, password (5-50) and a plan from GET /plans/list. POST
 * /companies/cadastro creates all of it; success goes to /login, which shows the success text.
 * `?companyId` is kept on the link back to /login.
 */
export default function SignupPage({ companyId }: SignupPageProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState({
    name: "",
    companyName: "",
    email: "",
    phone: "",
    password: "",
  });
  const [planId, setPlanId] = useState("");
  const [plans, setPlans] = useState<PlanView[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    setReady(true);
    api.get<PlanView[]>("/plans/list", { auth: false, quiet: true }).then(setPlans).catch(() =>
      setPlans([])
    );
  }, []);

  const field = (name: keyof typeof values) => ({
    name,
    value: values[name],
    error: errors[name],
    onChange: (e: { target: { value: string } }) => {
      setValues((old) => ({ ...old, [name]: e.target.value }));
      // A field's old message goes once it is changed (issue 24 item 2).
      setErrors((old) => (old[name] ? { ...old, [name]: "" } : old));
    },
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const local = check({ ...values, planId }, {
      name: length(LIMITS.name),
      companyName: length(LIMITS.name),
      email: email(true),
      password: length(LIMITS.password),
      planId: (v) => (v ? null : "people.validation.required"),
    });
    setErrors(Object.fromEntries(Object.entries(local).map(([f, key]) => [f, t(key)])));
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      await api.post("/companies/cadastro", {
        name: values.name.trim(),
        companyName: values.companyName.trim(),
        email: values.email.trim(),
        phone: values.phone.trim(),
        password: values.password,
        planId: Number(planId),
      }, { auth: false, quiet: true });
      location.assign(`/login?${SIGNUP_DONE_QUERY}`);
    } catch (caught) {
      setBusy(false);
      const fields = fieldErrors(caught, t);
      if (fields) setErrors(fields);
      setError(errorText(caught, t));
    }
  };

  const loginHref = companyId ? `/login?companyId=${encodeURIComponent(companyId)}` : "/login";
  return (
    <AuthCard title={t("platform.signup.title")} subtitle={t("platform.signup.subtitle")}>
      {error
        ? <div className="alert alert-error" role="alert" data-testid="signup-error">{error}</div>
        : null}
      <form onSubmit={submit} method="post" noValidate data-testid="signup-form">
        <Field
          label={t("platform.signup.name")}
          autoComplete="name"
          autoFocus
          {...field("name")}
        />
        <Field
          label={t("platform.signup.companyName")}
          autoComplete="organization"
          {...field("companyName")}
        />
        <Field
          label={t("platform.signup.email")}
          type="email"
          autoComplete="email"
          {...field("email")}
        />
        <Field
          label={t("platform.signup.phone")}
          type="tel"
          autoComplete="tel"
          {...field("phone")}
        />
        <Field
          label={t("platform.signup.password")}
          type="password"
          autoComplete="new-password"
          {...field("password")}
        />
        <div className="field">
          <label htmlFor="signup-plan">{t("platform.signup.plan")}</label>
          <select
            id="signup-plan"
            name="planId"
            className="input"
            value={planId}
            onChange={(e) => setPlanId(e.target.value)}
            aria-invalid={errors.planId ? true : undefined}
          >
            <option value="" disabled>{t("platform.signup.selectPlan")}</option>
            {plans.map((p) => (
              <option key={p.id} value={String(p.id)}>
                {t("platform.signup.planOption", {
                  name: p.name,
                  users: planLimit(p.users, t),
                  connections: planLimit(p.connections, t),
                  queues: planLimit(p.queues, t),
                  value: p.value.toLocaleString("pt-BR", { minimumFractionDigits: 2 }),
                })}
              </option>
            ))}
          </select>
          {errors.planId ? <span className="field-error">{errors.planId}</span> : null}
        </div>
        <Button type="submit" variant="primary" block loading={busy} disabled={!ready}>
          <UserPlus size={18} aria-hidden="true" />
          {t("platform.signup.submit")}
        </Button>
      </form>
      <p className="auth-footer">
        <a href={loginHref}>{t("platform.signup.haveAccount")}</a>
      </p>
    </AuthCard>
  );
}
