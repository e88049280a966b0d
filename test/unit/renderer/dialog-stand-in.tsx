/**
 * jsdom has the <dialog> element but not its showModal() and close() (the browser's): the stand-in opens
 * and closes it as the attribute `open`, which is what the window's dialogs (ConfirmDialog, FormDialog)
 * and a user's view of them hang on. Focus trapping and the inert page are the e2e walk's to check.
 */
export function standInForDialogs(): void {
  const dialog = window.HTMLDialogElement.prototype;
  if (typeof dialog.showModal === 'function') return;
  dialog.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  dialog.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
}
