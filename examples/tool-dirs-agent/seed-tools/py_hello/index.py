import os

print(f"hello, {os.environ['INPUT_NAME']}")
