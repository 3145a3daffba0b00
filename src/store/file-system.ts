// The store's file system calls: node:fs's callbacks, each as a promise, rather than
// node:fs/promises. Loading node:fs/promises loads, with it, Node's readline, file watchers,
// directory iterators and file streams, none of which the store uses (an idle node with the rest of
// what the bridge loads: 0.4 MiB anonymous and 0.4 MiB file-backed more with it, on Node 26 with
// the image's flags; in the steady bridge, this and the bundle's assert and tty stand-ins together
// came to 0.3 MiB file-backed, 2026-11-27). Not util.promisify either: importing node:util as an
// ES module makes Node fill its namespace, which loads util's lazy members (argument parsing,
// diffing, worker threads).
import * as fs from "node:fs";

type Callback<T> = (error: NodeJS.ErrnoException | null, value: T) => void;

/** The promise of a node:fs call that reports through a callback. */
function settled<T>(call: (done: Callback<T>) => void): Promise<T> {
  return new Promise((resolve, reject) => call((error, value) => (error ? reject(error) : resolve(value))));
}

export const close = (fd: number) => settled<void>((done) => fs.close(fd, (error) => done(error)));
export const fsync = (fd: number) => settled<void>((done) => fs.fsync(fd, (error) => done(error)));
export const lstat = (path: string) => settled<fs.Stats>((done) => fs.lstat(path, done));
export const mkdir = (path: string, options: fs.MakeDirectoryOptions) =>
  settled<string | undefined>((done) => fs.mkdir(path, options, done));
export const open = (path: string, flags: fs.OpenMode) =>
  settled<number>((done) => fs.open(path, flags, done));
export const readdir = (path: string) => settled<string[]>((done) => fs.readdir(path, done));
export const readFile = (path: string) => settled<Buffer>((done) => fs.readFile(path, done));
export const rename = (from: string, to: string) =>
  settled<void>((done) => fs.rename(from, to, (error) => done(error)));
export const unlink = (path: string) => settled<void>((done) => fs.unlink(path, (error) => done(error)));
