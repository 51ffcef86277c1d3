import { useTranslation } from "react-i18next";
import { api } from "../api.ts";
import { toast } from "../toast.ts";
import { whenOpen } from "../ui/deferred.tsx";

const ConfirmDialog = whenOpen(() =>
  import("../ui/ConfirmDialog.tsx").then((m) => m.ConfirmDialog)
);
import type { ResourceList } from "./hooks.ts";
import type { Identified } from "./list_controller.ts";

/**
 * The delete confirmation of a list page: `DELETE <path>/<id>`, the row leaves the list, the
 * success toast. The text defaults to the admin tables' 'Deseja realmente excluir este/esse
 * registro?' (seeds/001 section 2). While the request runs the button is busy; a refusal keeps
 * the dialog open (the api client showed why).
 */
export function DeleteDialog<T extends Identified>(
  { list, target, onClose, path, title, description, successKey }: {
    list: ResourceList<T>;
    target: T | null;
    onClose: () => void;
    /** The resource's route, e.g. "/tags": the request is DELETE /tags/<id>. */
    path: string;
    title: string;
    description?: string;
    successKey: string;
  },
) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      open={target !== null}
      onOpenChange={(open) => !open && onClose()}
      title={title}
      description={description ?? t("common.deleteRecord")}
      confirmLabel={t("common.delete")}
      danger
      onConfirm={async () => {
        if (!target) return;
        await api.delete(`${path}/${target.id}`);
        list.remove(target.id);
        toast.success({ key: successKey });
      }}
    />
  );
}
