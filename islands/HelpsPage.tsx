import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "./lib/api.ts";
import { type HelpView, youtubeThumbnail } from "../contract/platform_types.ts";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { whenOpen } from "./lib/ui/deferred.tsx";
import { icon } from "./lib/ui/icon.tsx";

const PlayCircle = icon("circle-play");

const VideoDialog = whenOpen(() => import("./helps/VideoDialog.tsx").then((m) => m.VideoDialog));

export type HelpsPageProps = Record<string, never>;

/**
 * /helps (seeds/001 section 2 'Helps page', everyone): a grid of video cards whose thumbnails
 * come from the video id; a card opens the player in a dialog that Escape closes.
 */
export default function HelpsPage(_props: HelpsPageProps) {
  const { t } = useTranslation();
  return (
    <AppShell title={t("platform.helps.pageTitle")}>
      <Helps />
    </AppShell>
  );
}

function Helps() {
  const { t } = useTranslation();
  const [helps, setHelps] = useState<HelpView[] | null>(null);
  const [playing, setPlaying] = useState<HelpView | null>(null);
  useEffect(() => {
    api.get<HelpView[]>("/helps/list").then(setHelps).catch(() => setHelps([]));
  }, []);
  if (helps === null) return <div className="helps-grid" aria-busy="true" />;
  if (helps.length === 0) return <div className="empty-state">{t("platform.helps.none")}</div>;
  return (
    <>
      <ul className="helps-grid" data-testid="helps-grid">
        {helps.map((h) => (
          <li key={h.id} className="card help-card" data-testid="help-card">
            <button
              type="button"
              className="help-thumb"
              onClick={() => setPlaying(h)}
              aria-label={t("platform.helps.watch", { title: h.title })}
              disabled={!h.video}
            >
              {h.video
                ? <img src={youtubeThumbnail(h.video)} alt="" loading="lazy" />
                : <span className="help-thumb-empty" />}
              <PlayCircle className="help-play" size={44} aria-hidden="true" />
            </button>
            <div className="help-text">
              <h2 className="help-title">{h.title}</h2>
              {h.description ? <p className="help-description">{h.description}</p> : null}
            </div>
          </li>
        ))}
      </ul>
      <VideoDialog
        open={playing !== null}
        help={playing}
        onOpenChange={(open) => !open && setPlaying(null)}
      />
    </>
  );
}
