NOTES = "no shape here"
