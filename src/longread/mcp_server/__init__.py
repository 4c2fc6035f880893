"""longread as an MCP server (`longread mcp`): its verbs as tools for agents and editors."""
