// Balcão's service worker (issue 42), served as /sw.js so that its scope is the whole app.
// Plain script, not bundled: pages register it from the head script and pay nothing more.
//
// What it keeps: the offline page and its icon, nothing else. Pages and /api answers always come
// from the network and are never stored here, so one user's data is never served to another
// (a shared computer, a sign-out): when the network is down, a page navigation shows /offline.
// What it does: shows the pushes the server sends (server/push/send.ts) and opens their ticket
// or chat on a click.

const CACHE = "balcao-offline-v1";
const OFFLINE_URL = "/offline";
const PRECACHE = [OFFLINE_URL, "/static/icons/icon-192.png", "/static/icons/badge-96.png"];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
      // The page's request starts while the worker wakes up, not after (no delay on navigations).
      .then(() =>
        self.registration.navigationPreload && self.registration.navigationPreload.enable()
      )
      .then(() => self.clients.claim()),
  );
});

// Only page navigations are answered here, from the network; the cached offline page stands in
// when it fails. Every other request (API, sockets, bundles) goes on as if there were no worker.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.mode !== "navigate" || request.method !== "GET") return;
  event.respondWith(
    Promise.resolve(event.preloadResponse)
      .then((preloaded) => preloaded || fetch(request))
      .catch(() => caches.match(OFFLINE_URL).then((page) => page || Response.error())),
  );
});

/** The payload of contract/push_types.ts PushPayload; anything unreadable shows the app's name. */
function readPush(event) {
  try {
    const data = event.data ? event.data.json() : {};
    return {
      title: typeof data.title === "string" ? data.title : "Balcão",
      body: typeof data.body === "string" ? data.body : "",
      url: typeof data.url === "string" ? data.url : "/",
      tag: typeof data.tag === "string" ? data.tag : undefined,
      kind: typeof data.kind === "string" ? data.kind : "",
    };
  } catch (_) {
    return { title: "Balcão", body: "", url: "/", tag: undefined, kind: "" };
  }
}

/** What the system shows for a push (title, and the options showNotification takes). */
function notificationOf(push) {
  return {
    title: push.title,
    options: {
      body: push.body,
      tag: push.tag,
      renotify: push.tag !== undefined,
      icon: "/static/icons/icon-192.png",
      badge: "/static/icons/badge-96.png",
      data: { url: push.url, kind: push.kind },
    },
  };
}

// Shown by the system; the app's open windows are told too (a page in front may say it its own
// way). A browser that shows nothing (permission withdrawn) still tells the windows.
self.addEventListener("push", (event) => {
  const push = readPush(event);
  const shown = notificationOf(push);
  event.waitUntil(Promise.all([
    self.registration.showNotification(shown.title, shown.options).catch(() => {}),
    self.clients.matchAll({ type: "window" }).then((windows) => {
      for (const client of windows) client.postMessage({ type: "push", push });
    }),
  ]));
});

/**
 * A click opens the notification's page: an open window of the app goes there (and comes to the
 * front), else a new one opens. Only a path of this app is followed.
 */
async function openPage(path) {
  const target = new URL(path, self.location.origin);
  if (target.origin !== self.location.origin) return;
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  for (const client of windows) {
    if (new URL(client.url).origin !== self.location.origin) continue;
    try {
      const moved = await client.navigate(target.href);
      await (moved || client).focus().catch(() => {});
      return;
    } catch (_) {
      // Not ours to steer (not controlled yet): try the next, or open a window.
    }
  }
  await self.clients.openWindow(target.href);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const data = event.notification.data || {};
  event.waitUntil(openPage(typeof data.url === "string" ? data.url : "/"));
});
