import { useTranslation } from "react-i18next";
import { MESSAGE_VARIABLES, variableToken } from "../../../contract/message_variables.ts";

/**
 * The variables a text may use, each with what it becomes (issue 24): the one list of
 * contract/message_variables.ts, shown under every text the server fills (quick answers,
 * greetings and the other automatic texts of connections and queues, campaigns). `tokens` adds
 * written-out ones of a campaign (`{nome}`, the settings' `{cupom}`) with their descriptions.
 */
export function VariableList(
  { variables = MESSAGE_VARIABLES, tokens = [], testId = "variable-list" }: {
    variables?: readonly string[];
    tokens?: readonly { token: string; text: string }[];
    testId?: string;
  },
) {
  const { t } = useTranslation();
  const items = [
    ...variables.map((v) => ({ token: variableToken(v), text: t(`variables.${v}`) })),
    ...tokens,
  ];
  return (
    <div className="variable-list" data-testid={testId}>
      <span className="variable-list-title">{t("variables.title")}</span>
      <ul>
        {items.map((item) => (
          <li key={item.token}>
            <code>{item.token}</code> <span>{item.text}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
