import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Pencil, Plus, Trash2 } from "lucide-react";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { api } from "./lib/api.ts";
import { isAdmin, setSessionUser, useSessionUser, useUser } from "./lib/session.ts";
import { useRealtime } from "./lib/socket.ts";
import { toast } from "./lib/toast.ts";
import { Button, IconButton } from "./lib/ui/Button.tsx";
import { ConfirmDialog } from "./lib/list/ConfirmDialog.tsx";
import { useInfiniteScroll, useSearchTerm } from "./lib/list/hooks.ts";
import { PeopleList, SearchBox } from "./lib/list/PeopleList.tsx";
import type { UserPage, UserRow } from "./lib/people_types.ts";
import { UserDialog } from "./users/UserDialog.tsx";

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
  return (
    <Button variant="primary" onClick={() => dispatchEvent(new Event(OPEN_ADD))}>
      <Plus size={16} aria-hidden="true" />
      <span className="btn-label">{t("users.add")}</span>
    </Button>
  );
}

function byName(a: UserRow, b: UserRow) {
  return a.name.localeCompare(b.name, undefined, { sensitivity: "base" }) || a.id - b.id;
}

function Users() {
  const { t } = useTranslation();
  const me = useUser();
  const admin = isAdmin(me);
  const [typed, setTyped] = useState("");
  const term = useSearchTerm(typed);
  const [users, setUsers] = useState<UserRow[]>([]);
  const [page, setPage] = useState(1);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [editing, setEditing] = useState<{ id: number | null } | null>(null);
  const [deleting, setDeleting] = useState<UserRow | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const scroller = useRef<HTMLDivElement>(null);
  const seq = useRef(0);

  const load = useCallback((pageNumber: number) => {
    const mine = ++seq.current;
    setLoading(true);
    api.get<UserPage>("/users", {
      query: { pageNumber, ...(term ? { searchParam: term } : {}) },
    }).then((answer) => {
      if (mine !== seq.current) return;
      setUsers((list) => {
        if (pageNumber === 1) return answer.users;
        const known = new Set(list.map((u) => u.id));
        return [...list, ...answer.users.filter((u) => !known.has(u.id))];
      });
      setHasMore(answer.hasMore);
      setPage(pageNumber);
    }).catch(() => {}).finally(() => {
      if (mine === seq.current) setLoading(false);
    });
  }, [term]);

  useEffect(() => load(1), [load]);
  const loadMore = useCallback(() => {
    if (!loading && hasMore) load(page + 1);
  }, [loading, hasMore, page, load]);
  useInfiniteScroll(scroller, hasMore && !loading, loadMore, users.length);

  useEffect(() => {
    const add = () => setEditing({ id: null });
    addEventListener(OPEN_ADD, add);
    return () => removeEventListener(OPEN_ADD, add);
  }, []);

  const upsert = (user: UserRow) =>
    setUsers((list) =>
      list.some((u) => u.id === user.id)
        ? list.map((u) => (u.id === user.id ? { ...u, ...user } : u))
        : term
        ? list
        : [...list, user].sort(byName)
    );

  // Live list: company-<id>-user (server/users/service.ts).
  useRealtime("user", (data) => {
    const event = data as { action: string; user?: UserRow; userId?: number };
    if (event.action === "delete") setUsers((list) => list.filter((u) => u.id !== event.userId));
    else if (event.user) upsert(event.user);
  });

  const confirmDelete = async () => {
    if (!deleting) return;
    setDeleteBusy(true);
    try {
      await api.delete(`/users/${deleting.id}`);
      setUsers((list) => list.filter((u) => u.id !== deleting.id));
      toast.success({ key: "users.deleted" });
      setDeleting(null);
    } catch {
      // toasted by the api client
    } finally {
      setDeleteBusy(false);
    }
  };

  return (
    <div className="people-page">
      <SearchBox
        value={typed}
        onChange={setTyped}
        placeholder={t("users.searchPlaceholder")}
        label={t("common.search")}
        testId="users-search"
      />
      <PeopleList ref={scroller} testId="users-list">
        <table className="people-table">
          <thead>
            <tr>
              <th>{t("users.name")}</th>
              <th className="col-hide-sm">{t("users.email")}</th>
              <th>{t("users.profile")}</th>
              <th className="col-actions">{t("users.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr key={u.id} data-testid="user-row" data-user-id={u.id}>
                <td className="people-name">{u.name}</td>
                <td className="col-hide-sm">{u.email}</td>
                <td>
                  <span className="people-badge">
                    {t(`users.profiles.${u.profile}`, { defaultValue: u.profile })}
                  </span>
                </td>
                <td className="col-actions">
                  {admin || u.id === me.id
                    ? (
                      <IconButton label={t("common.edit")} onClick={() => setEditing({ id: u.id })}>
                        <Pencil size={18} aria-hidden="true" />
                      </IconButton>
                    )
                    : null}
                  {admin
                    ? (
                      <IconButton label={t("common.delete")} onClick={() => setDeleting(u)}>
                        <Trash2 size={18} aria-hidden="true" />
                      </IconButton>
                    )
                    : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {loading ? <div className="people-loading">{t("common.loading")}</div> : null}
        {!loading && users.length === 0
          ? <div className="empty-state">{t("users.empty")}</div>
          : null}
      </PeopleList>

      <UserDialog
        open={editing !== null}
        onOpenChange={(open) => !open && setEditing(null)}
        userId={editing?.id ?? null}
        canAdmin={admin}
        onSaved={(saved) => {
          upsert(saved);
          // My own name or email changed: the greeting and the session follow.
          if (saved.id === me.id) setSessionUser({ ...me, name: saved.name, email: saved.email });
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t("users.deleteTitle", { name: deleting?.name ?? "" })}
        onConfirm={confirmDelete}
        busy={deleteBusy}
      >
        {t("users.deleteMessage")}
      </ConfirmDialog>
    </div>
  );
}
