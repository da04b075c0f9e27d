/**
 * Web permissions the renderer may use; everything else (camera, microphone,
 * geolocation, notifications, HID/serial/USB, fullscreen by the page, …) is
 * denied (checklist item 5). Pure, so the tests read the same list.
 */
export const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set([
  // navigator.clipboard.writeText for the "copy" buttons on messages and code blocks.
  "clipboard-sanitized-write",
]);

export function isPermissionAllowed(permission: string, requestingUrl: string, isAppUrl: (url: string) => boolean): boolean {
  return ALLOWED_PERMISSIONS.has(permission) && isAppUrl(requestingUrl);
}
