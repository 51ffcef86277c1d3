import { useTranslation } from "react-i18next";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { isAdmin, setSessionUser, useSessionUser, useUser } from "./lib/session.ts";
import { DeleteDialog } from "./lib/list/DeleteDialog.tsx";
import { useRecordDialogs, useResourceList, useWindowEvent } from "./lib/list/hooks.ts";
import { AddButton, ListSearch, ResourceTable, RowActions } from "./lib/list/ResourceList.tsx";
import { byName } from "./lib/list/list_controller.ts";
import type { UserRow } from "../contract/people_types.ts";
import { whenOpen } from "./lib/ui/deferred.tsx";

const UserDialog = whenOpen(() => import("./users/UserDialog.tsx").then((m) => m.UserDialog));

export type UsersPageProps = Record<string, never>;

const OPEN_ADD = "users:add";

/** /users (seeds/000 section 2 'Users'): name, email, profile, actions. */
export default function UsersPage(_props: UsersPageProps) {
  const { t } = useTranslation();
  return (
    <AppShell title={t("users.title")} actions={<AddUser />}>
      <Users />
    </AppShell>
  );
}

function AddUser() {
  const { t } = useTranslation();
  const user = useSessionUser();
  if (!isAdmin(user)) return null;
  return <AddButton event={OPEN_ADD} label={t("users.add")} />;
}

/** GET /api/users pages, live on company-<id>-user. */
const USERS = { path: "/users", records: "users", channel: "user" as const, sort: byName };

function Users() {
  const { t } = useTranslation();
  const me = useUser();
  const admin = isAdmin(me);
  const list = useResourceList<UserRow>(USERS);
  const dialogs = useRecordDialogs<UserRow>();
  useWindowEvent(OPEN_ADD, dialogs.add);

  return (
    <div className="people-page">
      <ListSearch list={list} placeholder={t("users.searchPlaceholder")} testId="users-search" />
      <ResourceTable
        list={list}
        testId="users-list"
        empty={t("users.empty")}
        head={
          <>
            <th>{t("users.name")}</th>
            <th className="col-hide-sm">{t("users.email")}</th>
            <th>{t("users.profile")}</th>
            <th className="col-actions">{t("users.actions")}</th>
          </>
        }
      >
        {list.items.map((u) => (
          <tr key={u.id} data-testid="user-row" data-user-id={u.id}>
            <td className="people-name">{u.name}</td>
            <td className="col-hide-sm">{u.email}</td>
            <td>
              <span className="people-badge">
                {t(`users.profiles.${u.profile}`, { defaultValue: u.profile })}
              </span>
            </td>
            <RowActions
              onEdit={admin || u.id === me.id ? () => dialogs.edit(u.id) : undefined}
              onDelete={admin ? () => dialogs.askDelete(u) : undefined}
            />
          </tr>
        ))}
      </ResourceTable>

      <UserDialog
        open={dialogs.editing !== null}
        onOpenChange={(open) => !open && dialogs.closeEdit()}
        userId={dialogs.editing?.id ?? null}
        canAdmin={admin}
        onSaved={(saved) => {
          list.upsert(saved);
          // My own name or email changed: the greeting and the session follow.
          if (saved.id === me.id) setSessionUser({ ...me, name: saved.name, email: saved.email });
        }}
      />
      <DeleteDialog
        list={list}
        target={dialogs.deleting}
        onClose={dialogs.closeDelete}
        path="/users"
        title={t("users.deleteTitle", { name: dialogs.deleting?.name ?? "" })}
        description={t("users.deleteMessage")}
        successKey="users.deleted"
      />
    </div>
  );
}
