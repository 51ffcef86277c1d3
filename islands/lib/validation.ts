/**
 * The form rules of seeds/000 section 5, checked in the browser before sending (the server checks
 * them again). Messages are i18n keys under "people.validation".
 */
export type Rule = (value: string) => string | null;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function length(min: number, max: number, required = true): Rule {
  return (value) => {
    const v = value.trim();
    if (!v) return required ? "people.validation.required" : null;
    if (v.length < min) return "people.validation.tooShort";
    if (v.length > max) return "people.validation.tooLong";
    return null;
  };
}

export function email(required: boolean): Rule {
  return (value) => {
    const v = value.trim();
    if (!v) return required ? "people.validation.required" : null;
    return EMAIL.test(v) ? null : "people.validation.invalidEmail";
  };
}

/** Field name -> first failing rule's key, for the fields that fail. */
export function check(
  values: Record<string, string>,
  rules: Record<string, Rule>,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [field, rule] of Object.entries(rules)) {
    const message = rule(values[field] ?? "");
    if (message) errors[field] = message;
  }
  return errors;
}
