"""`python -m longread.cli`."""

from longread.cli import main

main()
