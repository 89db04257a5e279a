"""organizer package."""
