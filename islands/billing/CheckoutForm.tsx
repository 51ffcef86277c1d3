import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Field, FieldFrame } from "../lib/ui/Field.tsx";
import { CHECKOUT_TEXTS, COUNTRIES, cpfCnpjDigits } from "../../contract/billing_rules.ts";

export type CheckoutValues = {
  name: string;
  country: string;
  zipcode: string;
  address: string;
  state: string;
  city: string;
  cpfCnpj: string;
};

/**
 * The checkout's required fields (seeds/001 section 5), field -> message. The messages are the
 * specification's Portuguese texts, which the server's validation answers as well.
 */
export function checkoutErrors(v: CheckoutValues): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!v.name.trim()) errors.name = CHECKOUT_TEXTS.name;
  if (!v.address.trim()) errors.address = CHECKOUT_TEXTS.address;
  if (!v.city.trim()) errors.city = CHECKOUT_TEXTS.city;
  if (!v.zipcode.trim()) errors.zipcode = CHECKOUT_TEXTS.zipcode;
  if (!(COUNTRIES as readonly string[]).includes(v.country)) {
    errors.country = CHECKOUT_TEXTS.country;
  }
  if (cpfCnpjDigits(v.cpfCnpj) === null) errors.cpfCnpj = "CPF/CNPJ inválido";
  return errors;
}

/** The server names two fields as the seeds' payload does (firstName, address2). */
const SERVER_NAMES: Partial<Record<keyof CheckoutValues, string>> = {
  name: "firstName",
  address: "address2",
};

/** Step 'Dados': full name, country (BR or usa), ZIP, address, state, city (and CPF/CNPJ). */
export function CheckoutForm(
  { values, onChange, errors, needsTaxId, onSubmit }: {
    values: CheckoutValues;
    onChange: (values: CheckoutValues) => void;
    errors: Record<string, string>;
    needsTaxId: boolean;
    onSubmit: (event: FormEvent) => void;
  },
) {
  const { t } = useTranslation();
  const errorOf = (field: keyof CheckoutValues) =>
    errors[field] ?? errors[SERVER_NAMES[field] ?? field];
  const bind = (field: keyof CheckoutValues) => ({
    name: field,
    value: values[field],
    onChange: (e: { target: { value: string } }) =>
      onChange({ ...values, [field]: e.target.value }),
    error: errorOf(field),
  });
  return (
    <form id="checkout-data" className="people-form checkout-form" onSubmit={onSubmit} noValidate>
      <Field label={t("billing.checkout.fullName")} autoComplete="name" {...bind("name")} />
      <div className="row">
        <FieldFrame
          label={t("billing.checkout.country")}
          error={errorOf("country")}
          control={(wiring) => (
            <select
              {...wiring}
              className="input"
              name="country"
              value={values.country}
              onChange={(e) => onChange({ ...values, country: e.target.value })}
            >
              {COUNTRIES.map((c) => (
                <option key={c} value={c}>{t(`billing.checkout.countries.${c}`)}</option>
              ))}
            </select>
          )}
        />
        <Field
          label={t("billing.checkout.zipcode")}
          autoComplete="postal-code"
          {...bind("zipcode")}
        />
      </div>
      <Field
        label={t("billing.checkout.address")}
        autoComplete="street-address"
        {...bind("address")}
      />
      <div className="row">
        <Field label={t("billing.checkout.state")} {...bind("state")} />
        <Field label={t("billing.checkout.city")} {...bind("city")} />
      </div>
      <Field
        label={t("billing.checkout.cpfCnpj")}
        hint={needsTaxId ? t("billing.checkout.cpfCnpjHint") : undefined}
        inputMode="numeric"
        {...bind("cpfCnpj")}
      />
      <button type="submit" hidden />
    </form>
  );
}
