"""A question read once into a typed plan, validated against the record tables a source holds, and
executed as read-only SQL over them."""
