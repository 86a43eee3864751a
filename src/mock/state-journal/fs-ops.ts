// The file operations the journal appends, allocates and syncs with: node:fs's, replaceable in a test
// to simulate a full disk (ENOSPC), a file too large (EFBIG) or an I/O error (EIO) at that very layer.
import { fdatasync, writeSync } from 'node:fs';

export const journalFs: { writeSync: typeof writeSync; fdatasync: typeof fdatasync } = { writeSync, fdatasync };
