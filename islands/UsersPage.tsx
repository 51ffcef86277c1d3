import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "./lib/api.ts";
import { toast } from "./lib/toast.ts";
import { IconButton } from "./lib/ui/Button.tsx";
import { setSessionUser, useUser } from "./lib/session.ts";
import { can } from "./lib/permissions.ts";
import { ListPage, type ListSpec, RecordList, useRecordPage } from "./lib/list/RecordPage.tsx";
import { RowActions } from "./lib/list/ResourceList.tsx";
import { byName } from "./lib/list/list_controller.ts";
import type { UserRow } from "../contract/people_types.ts";
import { whenOpen } from "./lib/ui/deferred.tsx";
import { icon } from "./lib/ui/icon.tsx";

const ShieldOff = icon("shield-off");

// The 2FA reset's confirmation: radix's dialog code loads when it first opens (issue 33).
const ConfirmDialog = whenOpen(() =>
  import("./lib/ui/ConfirmDialog.tsx").then((m) => m.ConfirmDialog)
);

const UserDialog = whenOpen(() => import("./users/UserDialog.tsx").then((m) => m.UserDialog));

export type UsersPageProps = Record<string, never>;

/** /users (seeds/000 section 2 'Users'): name, email, profile, actions. */
export default function UsersPage(_props: UsersPageProps) {
  return (
    <ListPage title="users.title" add="users.add" canAdd={(user) => can(user, "user:create")}>
      <Users />
    </ListPage>
  );
}

/** GET /api/users pages, live on company-<id>-user. */
const USERS: ListSpec<UserRow> = {
  path: "/users",
  records: "users",
  channel: "user",
  sort: byName,
  testId: "users",
  search: "users.searchPlaceholder",
  empty: "users.empty",
  head: ["users.name", ["users.email", "col-hide-sm"], "users.profile"],
  actions: "users.actions",
  remove: { title: "users.deleteTitle", text: "users.deleteMessage", done: "users.deleted" },
};

function Users() {
  const { t } = useTranslation();
  const me = useUser();
  const manage = can(me, "user:manage");
  const page = useRecordPage(USERS);
  // Issue 30: the user whose second factor an admin is about to reset (a lost device).
  const [resetting, setResetting] = useState<UserRow | null>(null);
  const reset = async () => {
    const user = resetting!;
    await api.post(`/users/${user.id}/2fa/reset`);
    page.list.upsert({ ...user, twoFactor: false });
    toast.success({ key: "users.resetTwoFactor.done" });
    setResetting(null);
  };
  const onSaved = (saved: UserRow) => {
    page.list.upsert(saved);
    // My own name or email changed: the greeting and the session follow.
    if (saved.id === me.id) setSessionUser({ ...me, name: saved.name, email: saved.email });
  };
  return (
    <RecordList
      page={page}
      dialog={
        <UserDialog {...page.form} canAdmin={can(me, "user-modal:editQueues")} onSaved={onSaved} />
      }
    >
      {page.list.items.map((u) => (
        <tr key={u.id} data-testid="user-row" data-user-id={u.id}>
          <td className="people-name">{u.name}</td>
          <td className="col-hide-sm">{u.email}</td>
          <td>
            <span className="people-badge">
              {t(`users.profiles.${u.profile}`, { defaultValue: u.profile })}
            </span>
          </td>
          <RowActions
            {...page.actions(u, { edit: manage || u.id === me.id, remove: can(me, "user:delete") })}
          >
            {u.twoFactor && u.id !== me.id && can(me, "two-factor:reset")
              ? (
                <IconButton
                  label={t("users.resetTwoFactor.button")}
                  onClick={() => setResetting(u)}
                  data-testid="user-reset-2fa"
                >
                  <ShieldOff size={18} aria-hidden="true" />
                </IconButton>
              )
              : null}
          </RowActions>
        </tr>
      ))}
      <ConfirmDialog
        open={resetting !== null}
        onOpenChange={(open) => !open && setResetting(null)}
        title={t("users.resetTwoFactor.title", { name: resetting?.name ?? "" })}
        description={t("users.resetTwoFactor.text")}
        onConfirm={reset}
      />
    </RecordList>
  );
}
