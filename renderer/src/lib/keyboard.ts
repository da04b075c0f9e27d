/** Who should get a key: shared by the window-level shortcuts (approval Y/S/N, Escape to stop, Escape to close a floating panel). */

/** The key goes to text the user is typing (an input, a text area, an editable element). */
export function isTextField(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
}

/** A dialog is open: it owns Escape. */
export function isDialogOpen(): boolean {
  return document.querySelector('[role="dialog"], [role="alertdialog"]') !== null;
}
