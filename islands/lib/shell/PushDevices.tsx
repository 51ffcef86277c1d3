import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../api.ts";
import { toast } from "../toast.ts";
import {
  DEFAULT_PUSH_PREFERENCES,
  PUSH_KINDS,
  type PushDeviceView,
  type PushKeyAnswer,
  type PushKind,
  type PushPreferences,
} from "../../../contract/push_types.ts";
import { Button } from "../ui/Button.tsx";
import { deviceName } from "../../../contract/device_name.ts";

/** The VAPID key (base64url) as the bytes pushManager.subscribe wants. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const text = atob(base64 + "=".repeat((4 - base64.length % 4) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

const supported = () =>
  typeof navigator !== "undefined" && "serviceWorker" in navigator &&
  typeof window !== "undefined" && "PushManager" in window && "Notification" in window;

/**
 * Issue 42: Web Push in the security dialog. "Turn on for this device" asks the browser's
 * permission, subscribes with the server's VAPID key and sends the subscription (bound to this
 * session: signing out drops it); the user's devices are listed and removed here; the choices
 * (which kinds, the message text on the lock screen, quiet hours) apply to every device. iOS only
 * delivers pushes to the app added to the Home Screen (16.4+): the dialog says so.
 */
export function PushDevices() {
  const { t, i18n } = useTranslation();
  const [devices, setDevices] = useState<PushDeviceView[] | null>(null);
  const [prefs, setPrefs] = useState<PushPreferences>(DEFAULT_PUSH_PREFERENCES);
  const [busy, setBusy] = useState(false);
  const [denied, setDenied] = useState(false);
  const canPush = supported();
  const load = () => {
    api.get<{ subscriptions: PushDeviceView[] }>("/push/subscriptions")
      .then((a) => setDevices(a.subscriptions)).catch(() => {});
  };
  useEffect(() => {
    load();
    api.get<PushPreferences>("/push/preferences").then(setPrefs).catch(() => {});
    if (canPush) setDenied(Notification.permission === "denied");
  }, []);

  const enable = async () => {
    setBusy(true);
    try {
      if (await Notification.requestPermission() !== "granted") {
        setDenied(Notification.permission === "denied");
        return;
      }
      const registration = await navigator.serviceWorker.register("/sw.js");
      await navigator.serviceWorker.ready;
      const { publicKey } = await api.get<PushKeyAnswer>("/push/key");
      const subscription = await registration.pushManager.getSubscription() ??
        await registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(publicKey),
        });
      await api.post("/push/subscriptions", { ...subscription.toJSON(), language: i18n.language });
      toast.success({ key: "shell.security.push.enabled" });
      load();
    } catch {
      toast.warning({ key: "shell.security.push.unsupported" });
    } finally {
      setBusy(false);
    }
  };

  const remove = async (device: PushDeviceView) => {
    await api.delete(`/push/subscriptions/${device.id}`).catch(() => null);
    if (device.current && canPush) {
      const registration = await navigator.serviceWorker.getRegistration();
      await (await registration?.pushManager.getSubscription())?.unsubscribe().catch(() => {});
    }
    toast.success({ key: "shell.security.push.removed" });
    load();
  };

  const toggle = (kind: PushKind, on: boolean) =>
    setPrefs({
      ...prefs,
      kinds: on ? [...prefs.kinds, kind] : prefs.kinds.filter((k) => k !== kind),
    });
  const save = () => {
    api.put<PushPreferences>("/push/preferences", prefs).then((saved) => {
      setPrefs(saved);
      toast.success({ key: "shell.security.push.saved" });
    }).catch(() => {});
  };

  return (
    <section className="security-section" data-testid="push">
      <h3>{t("shell.security.push.title")}</h3>
      <p>{t("shell.security.push.intro")}</p>
      <p className="session-meta" data-testid="push-ios">{t("shell.security.push.ios")}</p>
      {!canPush
        ? <p className="alert alert-warning">{t("shell.security.push.unsupported")}</p>
        : denied
        ? <p className="alert alert-warning">{t("shell.security.push.denied")}</p>
        : (
          <Button variant="primary" onClick={enable} loading={busy} data-testid="push-enable">
            {t("shell.security.push.enable")}
          </Button>
        )}
      <h3>{t("shell.security.push.devices")}</h3>
      {devices?.length === 0 ? <p>{t("shell.security.push.noDevices")}</p> : null}
      <ul className="session-list">
        {(devices ?? []).map((d) => (
          <li key={d.id} data-testid="push-device">
            <div>
              <strong>{deviceName(d.userAgent, t)}</strong>
              <div className="session-meta">
                {t("shell.security.started", { date: new Date(d.createdAt).toLocaleString() })}
                {d.current ? ` · ${t("shell.security.push.thisDevice")}` : ""}
              </div>
            </div>
            <Button variant="secondary" onClick={() => remove(d)}>
              {t("shell.security.push.remove")}
            </Button>
          </li>
        ))}
      </ul>
      <fieldset className="push-choices">
        {PUSH_KINDS.map((kind) => (
          <label key={kind} className="security-scope">
            <input
              type="checkbox"
              checked={prefs.kinds.includes(kind)}
              onChange={(e) => toggle(kind, e.target.checked)}
            />
            {t(`shell.security.push.kinds.${kind}`)}
          </label>
        ))}
        <label className="security-scope">
          <input
            type="checkbox"
            checked={prefs.showText}
            onChange={(e) => setPrefs({ ...prefs, showText: e.target.checked })}
            data-testid="push-show-text"
          />
          {t("shell.security.push.showText")}
        </label>
        <div className="security-scope">
          <label className="security-scope">
            {t("shell.security.push.quietStart")}
            <input
              type="time"
              value={prefs.quietStart ?? ""}
              onChange={(e) => setPrefs({ ...prefs, quietStart: e.target.value || null })}
            />
          </label>
          <label className="security-scope">
            {t("shell.security.push.quietEnd")}
            <input
              type="time"
              value={prefs.quietEnd ?? ""}
              onChange={(e) => setPrefs({ ...prefs, quietEnd: e.target.value || null })}
            />
          </label>
        </div>
        <Button variant="secondary" onClick={save} data-testid="push-save">
          {t("shell.security.push.save")}
        </Button>
      </fieldset>
    </section>
  );
}
