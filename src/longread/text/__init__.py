"""Pure text functions that import nothing else of longread's but floor-0 modules."""
