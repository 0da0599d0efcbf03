-- Jantaku schema, version 6: a seat's standing option to confirm every discard with a second tap
-- (`/table auto what:confirm-discard`): on a phone a mis-tapped discard button is otherwise final.
ALTER TABLE seats ADD COLUMN confirm_discard INTEGER NOT NULL DEFAULT 0;
