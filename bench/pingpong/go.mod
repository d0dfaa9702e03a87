module pingpong

go 1.22
