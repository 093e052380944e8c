CREATE TABLE `stream_maintenance` (
	`stream_id` text NOT NULL,
	`n` integer NOT NULL,
	`spend` text NOT NULL,
	`state_key` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`stream_id`, `n`),
	FOREIGN KEY (`stream_id`) REFERENCES `streams`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `stream_plans` (
	`stream_id` text PRIMARY KEY NOT NULL,
	`maintenance` text NOT NULL,
	`evaluation` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`stream_id`) REFERENCES `streams`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `stream_results` (
	`stream_id` text NOT NULL,
	`n` integer NOT NULL,
	`configuration` text NOT NULL,
	`records` text NOT NULL,
	`memory` text,
	`notes` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`stream_id`, `n`, `configuration`),
	FOREIGN KEY (`stream_id`) REFERENCES `streams`(`id`) ON UPDATE no action ON DELETE cascade
);
