/**
 * The tray icon: a 32×32 black-and-alpha PNG, so macOS can use it as a template image (tinted for
 * light and dark menu bars). Inline, so the icon needs no file lookup inside the packaged app.
 */
export const TRAY_ICON_DATA_URL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAAXklEQVR42u2XMQ4AIAgD+f+ncXFyMiC2kDbpqL0BTTGTcvJtWPBpWHA5iAcNC06DeJGh4dcQ0Yu+AVSffzZIApg3AzSvgOYfEIAABNCyE/SpZDSllKaW0ywmNKvZHC1FXdI8nb/r6QAAAABJRU5ErkJggg==';
