import sys
if sys.argv[1:] == ["--list"]:
    print("serve")
