/**
 * Drops for the Files page's e2e tests, made in the page as a user's drag would make them: a real
 * DataTransfer with File objects (what Playwright can build; its items have no file-system entries), and a
 * folder as the browser's file-system entries (webkitGetAsEntry) through stand-ins with the same API, since
 * a page cannot build real ones. Also the animation-frame heartbeat that shows the page stayed responsive.
 * The functions passed to page.evaluate run in Chromium; this file is type-checked without DOM types, so
 * the page's globals are reached through the small PageScope type.
 */
import type { Page } from 'playwright-core';

/** A file of a synthetic drop: its path inside the dropped folder (or its name) and its text. */
export interface DropFile {
  path: string;
  text: string;
}

interface PageScope {
  DataTransfer: new () => { items: { add(file: unknown): void }; types: readonly string[] };
  DragEvent: new (type: string, init: { dataTransfer: unknown; bubbles: boolean; cancelable: boolean }) => unknown;
  Event: new (type: string, init: { bubbles: boolean; cancelable: boolean }) => object;
  File: new (parts: string[], name: string) => { name: string };
  document: { body: { dispatchEvent(event: unknown): boolean } };
  requestAnimationFrame(callback: (time: number) => void): number;
  __heartbeat?: { frames: number; longestGapMs: number; running: boolean; longTasks: number[] };
  PerformanceObserver: new (callback: (list: { getEntries(): Array<{ duration: number; startTime: number }> }) => void) => {
    observe(options: { type: string }): void;
    disconnect(): void;
  };
  __preparedDrop?: object;
}

/** Dispatches the drop dropFolder(…, { prepareOnly: true }) made: building a big one in the page is the test's work, not the app's. */
export async function dispatchPreparedDrop(page: Page): Promise<void> {
  await page.evaluate(() => {
    const scope = globalThis as unknown as PageScope;
    if (scope.__preparedDrop) scope.document.body.dispatchEvent(scope.__preparedDrop);
    delete scope.__preparedDrop;
  });
}

/** Drags `files` over the page (dragenter) and, unless `drop` is false, drops them: a real DataTransfer of loose files. */
export async function dropFiles(page: Page, files: DropFile[], options: { drop?: boolean } = {}): Promise<void> {
  await page.evaluate(
    ({ files: list, drop }) => {
      const scope = globalThis as unknown as PageScope;
      const data = new scope.DataTransfer();
      for (const file of list) data.items.add(new scope.File([file.text], file.path));
      scope.document.body.dispatchEvent(new scope.DragEvent('dragenter', { dataTransfer: data, bubbles: true, cancelable: true }));
      scope.document.body.dispatchEvent(new scope.DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
      if (drop) scope.document.body.dispatchEvent(new scope.DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    },
    { files, drop: options.drop ?? true },
  );
}

/**
 * Drops one folder named `name` holding `files` (paths inside it; a path ending in `/` is an empty folder),
 * as Chrome's FileSystemDirectoryEntry does: readEntries answers 100 children at a time. A file whose text
 * is `null` fails to read, as a file removed between the drop and the read would. `alsoText` adds a
 * dragged text item beside it (not a file: left alone); `prepareOnly` keeps the drop for dispatchPreparedDrop.
 */
export async function dropFolder(
  page: Page,
  name: string,
  files: Array<{ path: string; text: string | null }>,
  extra: { alsoText?: boolean; prepareOnly?: boolean } = {},
): Promise<void> {
  await page.evaluate(
    ({ name: folderName, files: list, alsoText, prepareOnly }) => {
      const scope = globalThis as unknown as PageScope;
      type Node = { kind: 'file'; text: string | null } | { kind: 'dir'; children: Map<string, Node> };
      const root: Node = { kind: 'dir', children: new Map() };
      const place = (path: string, text: string | null, directory: boolean) => {
        const segments = path.split('/').filter((segment) => segment !== '');
        let at = root;
        segments.forEach((segment, index) => {
          const last = index === segments.length - 1;
          let next = at.children.get(segment);
          if (!next) {
            next = last && !directory ? { kind: 'file', text } : { kind: 'dir', children: new Map() };
            at.children.set(segment, next);
          }
          if (next.kind === 'dir') at = next;
        });
      };
      for (const file of list) place(file.path, file.text, file.path.endsWith('/'));
      const entryOf = (entryName: string, node: Node): object => {
        if (node.kind === 'file') {
          return {
            isFile: true,
            isDirectory: false,
            name: entryName,
            // Answered in a task of its own, as the browser answers each file() call.
            file(success: (file: unknown) => void, failure: (error: unknown) => void) {
              setTimeout(() => (node.text === null ? failure(new Error('NotFoundError')) : success(new scope.File([node.text], entryName))));
            },
          };
        }
        return {
          isFile: false,
          isDirectory: true,
          name: entryName,
          createReader() {
            const children = [...node.children].map(([childName, child]) => entryOf(childName, child));
            let at = 0;
            return {
              readEntries(success: (entries: object[]) => void) {
                const batch = children.slice(at, at + 100);
                at += batch.length;
                setTimeout(() => success(batch));
              },
            };
          },
        };
      };
      const items = [{ kind: 'file', getAsFile: () => null, webkitGetAsEntry: () => entryOf(folderName, root) }];
      if (alsoText) items.push({ kind: 'string', getAsFile: () => null, webkitGetAsEntry: () => null as unknown as object });
      const event = new scope.Event('drop', { bubbles: true, cancelable: true });
      Object.defineProperty(event, 'dataTransfer', { value: { types: ['Files'], items, files: [] } });
      if (prepareOnly) scope.__preparedDrop = event;
      else scope.document.body.dispatchEvent(event);
    },
    { name, files, alsoText: extra.alsoText ?? false, prepareOnly: extra.prepareOnly ?? false },
  );
}

/** Drops what a browser gives for a file it cannot read (a file item without a file or an entry). */
export async function dropUnreadable(page: Page): Promise<void> {
  await page.evaluate(() => {
    const scope = globalThis as unknown as PageScope;
    const event = new scope.Event('drop', { bubbles: true, cancelable: true });
    const items = [{ kind: 'file', getAsFile: () => null, webkitGetAsEntry: () => null }];
    Object.defineProperty(event, 'dataTransfer', { value: { types: ['Files'], items, files: [] } });
    scope.document.body.dispatchEvent(event);
  });
}

/**
 * A big synthetic folder of `count` files: most in one flat folder (large enough to become a HAMT shard),
 * the rest in folders of 100.
 */
export function generatedFolder(count: number): DropFile[] {
  return Array.from({ length: count }, (_, i) => ({
    path: i < 6000 ? `many/file-${i}.txt` : `part-${Math.floor((i - 6000) / 100)}/file-${i}.txt`,
    text: `generated file ${i}\n`,
  }));
}

/** Starts counting animation frames and the longest gap between two (a blocked main thread makes a long one). */
export async function startHeartbeat(page: Page): Promise<void> {
  await page.evaluate(() => {
    const scope = globalThis as unknown as PageScope;
    const beat = { frames: 0, longestGapMs: 0, running: true, longTasks: [] as number[] };
    scope.__heartbeat = beat;
    new scope.PerformanceObserver((list) => {
      for (const entry of list.getEntries()) beat.longTasks.push(Math.round(entry.duration));
    }).observe({ type: 'longtask' });
    let last = -1;
    const tick = (time: number) => {
      if (last >= 0) beat.longestGapMs = Math.max(beat.longestGapMs, time - last);
      last = time;
      beat.frames += 1;
      if (beat.running) scope.requestAnimationFrame(tick);
    };
    scope.requestAnimationFrame(tick);
  });
}

export async function stopHeartbeat(page: Page): Promise<{ frames: number; longestGapMs: number; longTasks: number[] }> {
  return page.evaluate(() => {
    const scope = globalThis as unknown as PageScope;
    const beat = scope.__heartbeat ?? { frames: 0, longestGapMs: 0, running: false, longTasks: [] };
    beat.running = false;
    return { frames: beat.frames, longestGapMs: beat.longestGapMs, longTasks: beat.longTasks };
  });
}
