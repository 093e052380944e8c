CREATE TABLE `toolset_tools` (
	`toolset_id` text NOT NULL,
	`position` integer NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`parameters` text,
	FOREIGN KEY (`toolset_id`) REFERENCES `toolsets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `toolset_tools_position` ON `toolset_tools` (`toolset_id`,`position`);--> statement-breakpoint
CREATE TABLE `toolsets` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`source` text NOT NULL,
	`spec` text,
	`tool_count` integer NOT NULL,
	`created_at` integer NOT NULL
);
