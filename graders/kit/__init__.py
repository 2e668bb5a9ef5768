"""The student kit: `grade kit ID` builds the zip students get (see docs/student-kit.md)."""
