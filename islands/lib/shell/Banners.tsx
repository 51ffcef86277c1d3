import { useTranslation } from "react-i18next";
import { daysUntil } from "../session.ts";
import { can } from "../permissions.ts";
import type { SessionUser } from "../../../contract/types.ts";
import { icon } from "../ui/icon.tsx";
import { StorageWarning } from "./StorageWarning.tsx";
import { TakenBackNotice } from "./TakenBackNotice.tsx";

const TriangleAlert = icon("triangle-alert");

/** seeds/000 section 9: warn when fewer than 5 days of subscription remain. */
export const SUBSCRIPTION_WARNING_DAYS = 5;

function dayMonthYear(date: string): string {
  return `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;
}

/**
 * The shell's subscription banner (AppShell.tsx): a due date close, or a billing-only session;
 * worded for a trial until the company's first payment (issue 50).
 */
export function SubscriptionWarning({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  const payLink = can({ ...user, restricted: undefined }, "invoice:pay") &&
      globalThis.location?.pathname !== "/financeiro"
    ? <a href="/financeiro" data-testid="subscription-pay">{t("shell.payNow")}</a>
    : null;
  if (user.restricted === "billing") {
    return (
      <div className="subscription-warning" role="alert" data-testid="billing-only">
        <TriangleAlert size={16} aria-hidden="true" />
        {t(user.company.trial ? "shell.trialEnded" : "shell.billingOnly", {
          date: dayMonthYear(user.company.dueDate ?? ""),
        })}
        {payLink}
      </div>
    );
  }
  const days = daysUntil(user.company.dueDate);
  if (days === null || days < 0 || days >= SUBSCRIPTION_WARNING_DAYS) return null;
  return (
    <div className="subscription-warning" role="status" data-testid="subscription-warning">
      <TriangleAlert size={16} aria-hidden="true" />
      {t(user.company.trial ? "shell.trialEndsIn" : "shell.subscriptionExpiresIn", { count: days })}
      {payLink}
    </div>
  );
}

/**
 * The shell's banners, in one lazy chunk (every page's first load stays small): the
 * subscription's state, the storage's, and the tickets taken back while the user was offline.
 */
export function UserBanners({ user }: { user: SessionUser }) {
  return (
    <>
      <SubscriptionWarning user={user} />
      {can(user, "storage:read") ? <StorageWarning enabled operator={user.super === true} /> : null}
      {user.restricted ? null : <TakenBackNotice unseen={user.takenBack ?? 0} />}
    </>
  );
}
