// Package safewrite writes files so that a reader, a crash or a race
// never sees or makes harm:
//
//   - Atomic: a file written holds, at every moment, its old content or
//     its new, never a mix: the new goes to a temporary file beside it,
//     which is synced (unless Writer.NoSync) and renamed over it, and the
//     directory is synced after. A write that fails leaves the file as it
//     was and removes its temporary file; one killed leaves a temporary
//     file that a later run removes (RemoveStale) once its writer is
//     provably dead.
//   - Symlink-safe: every directory below a tree's root and the file
//     itself are opened relative to their parent without following a
//     symbolic link, so a link planted in the tree, or swapped in between
//     a walk and the write, fails with ErrSymlink instead of leading the
//     write elsewhere.
//   - Race-safe: a file a walk found (File with Info) must still be that
//     file (device and inode) when it is read and when it is replaced,
//     else ErrChanged.
//   - Hard-link-safe: a file with several names is skipped (ErrHardLink),
//     written through its inode so every name sees it, or split off, as
//     Writer.HardLinks says; never changed behind its other names' back
//     by accident.
//   - Mode and owner kept or refused: a replacement gets the permission
//     bits, owner, group and extended attributes of the file it replaces;
//     an owner that cannot be kept (only root may give a file away) is
//     ErrOwner, the file left alone, unless Writer.AllowOwnerChange.
//
// An unchanged file is not written at all (Update, UpdateStream, and
// Writer.KeepSame): its inode and modification time stay.
package safewrite
