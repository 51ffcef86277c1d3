import type { HelpView } from "../../contract/platform_types.ts";
import { Modal } from "../lib/ui/Modal.tsx";

/**
 * The player of a help video: YouTube's privacy-enhanced embed in a dialog (radix Dialog: Escape
 * and the close button end it, and the player with it).
 */
export function VideoDialog(
  { open, help, onOpenChange }: {
    open: boolean;
    help: HelpView | null;
    onOpenChange: (open: boolean) => void;
  },
) {
  if (!help) return null;
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={help.title} width={900}>
      <div className="help-player" data-testid="help-player">
        <iframe
          src={`https://www.youtube-nocookie.com/embed/${
            encodeURIComponent(help.video)
          }?autoplay=1`}
          title={help.title}
          allow="autoplay; encrypted-media; picture-in-picture"
          allowFullScreen
          style={{ width: "100%", aspectRatio: "16 / 9", border: 0 }}
        />
      </div>
    </Modal>
  );
}
