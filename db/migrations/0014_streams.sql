CREATE TABLE `stream_releases` (
	`stream_id` text NOT NULL,
	`n` integer NOT NULL,
	`surface_id` text NOT NULL,
	`surface` text NOT NULL,
	`diff` text,
	`released_at` integer NOT NULL,
	`sunset_at` integer,
	`due_at` integer,
	`trigger` text NOT NULL,
	PRIMARY KEY(`stream_id`, `n`),
	FOREIGN KEY (`stream_id`) REFERENCES `streams`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `streams` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text,
	`name` text NOT NULL,
	`backend` text NOT NULL,
	`api_id` text,
	`seed` text NOT NULL,
	`intensity` text NOT NULL,
	`cadence` text NOT NULL,
	`window` text NOT NULL,
	`current_release` integer DEFAULT 0 NOT NULL,
	`next_due_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `streams_due` ON `streams` (`next_due_at`);--> statement-breakpoint
CREATE INDEX `streams_owner` ON `streams` (`owner_id`,`created_at`);